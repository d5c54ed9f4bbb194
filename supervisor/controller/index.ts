export {createControllerClient, type ControllerClient} from './client.js';
export {verifyIdentityFiles} from './verify-identity.js';
export {pinIdentity} from './pin-identity.js';
export {fileDigest} from '../../files/file-digest.js';
export {InputsManifest} from './call-evidence.js';
export {buildController, buildSampleController} from './build-controller.js';
