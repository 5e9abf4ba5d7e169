export { ReportButton } from './ReportDialog';
