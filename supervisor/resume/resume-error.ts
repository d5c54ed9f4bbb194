import {InputError} from '../input-error.js';

/** Why `hlab eval --resume DIR` takes nothing and starts nothing: DIR is no attempt, is still live, finished, ran the other side, or a host or agent side. */
export class ResumeError extends InputError {
	constructor(readonly reason: 'not_an_attempt' | 'still_running' | 'nothing_to_resume' | 'other_side' | 'supervised_side', message: string) {
		super(message);
	}
}
