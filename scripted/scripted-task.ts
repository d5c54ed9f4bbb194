import type {ReferenceScript} from '../tasks/reference/reference-script.js';

/** A task the scripted provider can play: recognized by its prompt (the first user message). */
export interface ScriptedTask {
	id: string;
	prompt: string;
	reference: ReferenceScript;
}
