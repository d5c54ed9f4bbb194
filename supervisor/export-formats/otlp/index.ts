export {TraceExport} from './trace-export.js';
export {semconvSchemaUrl, semconvVersion} from './semconv-version.js';
