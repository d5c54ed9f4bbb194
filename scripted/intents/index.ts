/** The reference steps as intents, played on whatever tools a request offers (the built-in ones, or an agent's). */
export {toolPlanFor} from './plan-for-request.js';
export type {ToolPlan} from './tool-plan.js';
