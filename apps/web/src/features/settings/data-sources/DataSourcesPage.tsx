import { NotAvailablePanel } from "../NotAvailablePanel";

export function DataSourcesPage() {
  return <NotAvailablePanel title="Data Sources" />;
}
