/** The scripted provider: a loopback chat-completions server that plays the built-in tasks' reference behaviour and response scripts. */
export {startScriptedServer, type ScriptedServer, type ScriptedTask} from './server.js';
export {readResponseScript, ResponseScript, responseScriptSchema, scriptDigest, ScriptTurn, type ScriptedConversation} from './response-script.js';
export {caseConversations} from './case-conversations.js';
// hlab mock-provider: an OpenAI-compatible endpoint that fails on purpose, for testing a setup; its two-turn answer is the tests' too.
export {twoTurnAnswer} from './mock-provider/two-turn-answer.js';
