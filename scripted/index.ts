/** The scripted provider: a loopback chat-completions server that plays the built-in tasks' reference behaviour. */
export {startScriptedServer, type ScriptedServer, type ScriptedTask} from './server.js';
