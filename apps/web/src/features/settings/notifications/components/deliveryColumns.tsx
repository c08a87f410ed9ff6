import type { TDeliveryHealth, TIntegrationTestOutcome } from "@linewatch/contracts";
import type { SettingsColumn } from "../../../../shared/ui/settings/settings-grid";
import { DeliveryHealthText, LastTestText } from "./IntegrationStatus";

type ColumnOptions<R, V> = {
  timeZone: string;
  /** The row's value (the ETQ grid's detail rows have none: `isShown` false). */
  valueOf: (row: R) => V;
  /** Rows that show the cell; default every row. */
  isShown?: (row: R) => boolean;
};

/**
 * The Delivery column of both integrations grids (issue #13): a line's last delivery on the
 * page's channel, its failures in the last 24 hours and open alerts still being retried.
 */
export function deliveryHealthColumn<R extends object>(
  o: ColumnOptions<R, TDeliveryHealth | null>,
): SettingsColumn<R> {
  return {
    field: "health",
    headerName: "Delivery",
    flex: 1.6,
    minWidth: 240,
    sortable: false,
    renderCell: ({ row }) =>
      (o.isShown?.(row) ?? true) ? (
        <DeliveryHealthText health={o.valueOf(row)} timeZone={o.timeZone} />
      ) : null,
  };
}

/** The Last test column of both integrations grids: the last "Send test message" / "Test connection". */
export function lastTestColumn<R extends object>(
  o: ColumnOptions<R, TIntegrationTestOutcome | null>,
): SettingsColumn<R> {
  return {
    field: "lastTest",
    headerName: "Last test",
    flex: 1,
    minWidth: 180,
    sortable: false,
    renderCell: ({ row }) =>
      (o.isShown?.(row) ?? true) ? <LastTestText test={o.valueOf(row)} timeZone={o.timeZone} /> : null,
  };
}
