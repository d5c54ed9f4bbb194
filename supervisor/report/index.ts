export {loadReportInput, ReportInputError, type ReportPaths} from './load-report-input.js';
export {ReportInput, SideInput} from './report-input.js';
export {renderReportPage} from './render-page.js';
export {ReportPageExistsError, writeReportPage} from './write-page.js';
