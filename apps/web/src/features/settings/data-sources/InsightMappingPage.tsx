import { NotAvailablePanel } from "../NotAvailablePanel";

export function InsightMappingPage() {
  return <NotAvailablePanel title="Insight mapping" />;
}
