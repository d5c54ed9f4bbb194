export * from './experiment-controller.js';
export * from './plugin.js';
export * from './cartridge.js';
