export {loadReportInput, type ReportPaths} from './load-report-input.js';
export {ReportInput} from './report-input.js';
export {renderReportPage, reportPagePieces} from './render-page.js';
export {writeReportPage} from './write-page.js';
export {writeReport} from './write-report.js';
