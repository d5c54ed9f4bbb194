export {snapshotSource} from './snapshot-source.js';
export {readSnapshot} from './read-snapshot.js';
export {readCheckoutState} from './checkout-state.js';
export {buildHost} from './build-host.js';
export {verifyBuild} from './verify-build.js';
export {SourceError, checkoutRoot} from './git.js';
