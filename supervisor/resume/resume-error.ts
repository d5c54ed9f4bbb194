import {InputError} from '../input-error.js';

/** Why `hlab eval --resume DIR` takes nothing and starts nothing: DIR is no attempt, is still live, finished, ran the other side, or cannot be resumed yet (a host or agent side, a controller plan). */
export class ResumeError extends InputError {
	constructor(readonly reason: 'not_an_attempt' | 'still_running' | 'nothing_to_resume' | 'other_side' | 'not_resumable', message: string) {
		super(message);
	}
}
