/** Harness search: typed patches proposed, verified, run and evaluated under a spending envelope, with planning replay. */
export {readPolicy} from './read-policy.js';
export {runSearch} from './run-search.js';
export {replaySearch, ReplayMismatchError} from './replay-search.js';
export {providersFor} from './bound-providers.js';
export {scriptedSearchProvider} from './scripted-search-provider.js';
export {scriptedMutationProvider} from './scripted-mutation-provider.js';
export {readRoot, readSearchReport, readSeeds, readSuite} from './search-inputs.js';
export {runSearchDemo} from './search-demo.js';
export {modelMutationProvider} from './model-mutation-provider.js';
export {modelSearchProvider} from './model-search-provider.js';
