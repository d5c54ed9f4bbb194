import type {ReferenceScript} from '../reference/reference-script.js';

/** Everything needed is in the prompt, so the reference answers on its first turn without a tool. */
export const reference: ReferenceScript = function* () {
	return 'The job finished at 12:25.';
};
