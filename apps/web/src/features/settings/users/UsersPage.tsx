import { NotAvailablePanel } from "../NotAvailablePanel";

export function UsersPage() {
  return <NotAvailablePanel title="Users" />;
}
