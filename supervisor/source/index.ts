export {snapshotSource} from './snapshot-source.js';
export {readSnapshot, type SnapshotCheck} from './read-snapshot.js';
export {SnapshotManifest, snapshotSchema} from './snapshot-manifest.js';
export {readCheckoutState, sourceDigest, type CheckoutState, UntrackedFile} from './checkout-state.js';
export {buildHost, launcherName, type BuildHostOptions} from './build-host.js';
export {BuildRecord, buildSchema} from './build-record.js';
export {verifyBuild, readBuildRecord, type BuildCheck} from './verify-build.js';
export {SourceError, checkoutRoot} from './git.js';
