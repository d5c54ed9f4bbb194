export {snapshotSource} from './snapshot-source.js';
export {readSnapshot} from './read-snapshot.js';
export {readCheckoutState} from './checkout-state.js';
export {buildHost} from './build-host.js';
export {verifyBuild} from './verify-build.js';
export {SourceError} from './git.js';
export {harnessCheckoutRoot} from './harness-checkout.js';
export {describeLeftOut} from './evidence-folders.js';
