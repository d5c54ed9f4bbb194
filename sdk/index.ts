export * from './experiment-controller.js';
export * from './plugin.js';
