export {TraceExport, tracesUrl, type TraceExportOptions} from './trace-export.js';
export type {TaskTraceInput} from './task-spans.js';
export {semconvSchemaUrl, semconvVersion} from './semconv-version.js';
