export {createControllerClient, controllerStderrLimit, controllerStdoutLimit, controllerTimeoutMs, type ControllerClient, type ControllerClientOptions} from './client.js';
export {ControllerCallError, ControllerFailureReason, type ControllerCallResult} from './call-failure.js';
export {verifyIdentityFiles, type PinMismatch} from './verify-identity.js';
export {pinIdentity} from './pin-identity.js';
export {fileDigest} from '../../files/file-digest.js';
export {InputsManifest} from './call-evidence.js';
export {buildSampleController} from './build-sample.js';
