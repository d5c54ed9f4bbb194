/** The scripted provider: a loopback chat-completions server that plays the built-in tasks' reference behaviour and response scripts. */
export {startScriptedServer, type ScriptedServer, type ScriptedTask} from './server.js';
export {readResponseScript, ResponseScript, responseScriptSchema, scriptDigest, ScriptTurn, type ScriptedConversation} from './response-script.js';
export {caseConversations} from './case-conversations.js';
