// The sample experiment controller's entry: `hlab controller build` bundles this file standalone.
import {dispatchExperimentController} from 'hlab/sdk';
import {sampleController} from './sample-controller.js';

await dispatchExperimentController(sampleController);
