import {startScriptedServer, type ScriptedServer} from '../../engine/index.js';
import type {ToolRequest} from '../../engine/scripted/reference-script.js';
import {oneTurnPrompt} from './config.js';

/**
 * The engine's own scripted provider, serving one extra task: the one-turn prompt, whose reference
 * calls `done` at once. The built-in provider knows only the built-in prompts (any other is a 400
 * `unknown_task`), so the bench starts this one and points `--provider openai-compatible` at it.
 */
export function startOneTurnEndpoint(): Promise<ScriptedServer> {
	return startScriptedServer({tasks: [{id: 'one-turn', prompt: oneTurnPrompt, reference: callDoneAtOnce}]});
}

function* callDoneAtOnce(): Generator<ToolRequest, string, string> {
	return 'nothing to change';
}
