import {
  INTEGRATION_MESSAGES as M,
  type TDeliveryHealth,
  type TIntegrationTestOutcome,
} from "@linewatch/contracts";
import ErrorIcon from "@mui/icons-material/ErrorOutlineOutlined";
import { Box, Chip, Stack, Tooltip, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { formatDateTime } from "../../../../shared/format";

/** A line's Configured / Not Configured status, or its ETQ connection chip. */
export function StatusChip({ label }: { label: string }) {
  const color =
    label === M.connectionActive || label === M.configured
      ? "success"
      : label === M.connectionFailed
        ? "error"
        : "default";
  return (
    <Chip size="small" label={label} color={color} variant={color === "default" ? "outlined" : "filled"} />
  );
}

/** A grid cell's content, centred in the row's height like the grid's own text. */
export function CellBox({ children }: { children: ReactNode }) {
  return <Box sx={{ display: "flex", alignItems: "center", height: "100%", minWidth: 0 }}>{children}</Box>;
}

/** The outcome of the last "Send test message" / "Test connection", when there was one since the last save. */
export function LastTestText({ test, timeZone }: { test: TIntegrationTestOutcome | null; timeZone: string }) {
  if (!test) return null;
  const text = M.testOutcome(test.ok, test.httpStatus, test.message);
  return (
    <CellBox>
      <Tooltip title={`${formatDateTime(test.at, timeZone)}: ${text}`}>
        <Typography
          variant="body2"
          color={test.ok ? "success.main" : "error"}
          // Two lines at most in the row's 65 px; the whole reason is in the tooltip.
          sx={{
            whiteSpace: "normal",
            lineHeight: 1.3,
            display: "-webkit-box",
            WebkitLineClamp: 2,
            WebkitBoxOrient: "vertical",
            overflow: "hidden",
            wordBreak: "break-word",
          }}
          data-testid="last-test"
        >
          {text}
        </Typography>
      </Tooltip>
    </CellBox>
  );
}

/**
 * A line's delivery health on the page's channel: the last delivery and its result, failures in
 * the last 24 hours and open alerts still being retried (issue #13).
 */
export function DeliveryHealthText({
  health,
  timeZone,
}: {
  health: TDeliveryHealth | null;
  timeZone: string;
}) {
  const last = health?.lastAttempt;
  if (!health || !last) {
    return (
      <CellBox>
        <Typography variant="body2" color="text.secondary">
          {M.noDeliveries}
        </Typography>
      </CellBox>
    );
  }
  const when = formatDateTime(last.at, timeZone);
  const counts = [
    health.failuresLast24h > 0 ? M.failures24h(health.failuresLast24h) : null,
    health.retryingAlerts > 0 ? M.retrying(health.retryingAlerts) : null,
  ].filter(Boolean);
  return (
    <Stack
      spacing={0.25}
      sx={{ height: "100%", justifyContent: "center", minWidth: 0 }}
      data-testid="delivery-health"
    >
      {last.ok ? (
        <Typography variant="body2" sx={{ lineHeight: 1.3 }}>
          {M.lastDelivery}: {M.delivered} · {when}
        </Typography>
      ) : (
        <Tooltip title={`${when}: ${last.error ?? ""}`}>
          <Box sx={{ display: "flex", gap: 0.5, alignItems: "center", color: "error.main", minWidth: 0 }}>
            <ErrorIcon fontSize="small" />
            <Typography variant="body2" noWrap sx={{ lineHeight: 1.3 }}>
              {M.deliveryFailed}: {last.error}
            </Typography>
          </Box>
        </Tooltip>
      )}
      {counts.length > 0 && (
        <Tooltip title={counts.join(" · ")}>
          <Typography variant="caption" color="text.secondary" noWrap sx={{ lineHeight: 1.2 }}>
            {counts.join(" · ")}
          </Typography>
        </Tooltip>
      )}
    </Stack>
  );
}

/** The class of a row whose last delivery failed, and its mark (InlineEditGrid / SettingsGrid sx). */
export const DELIVERY_FAILED_ROW_CLASS = "lw-row-delivery-failed";
export const deliveryFailedRowSx = {
  [`& .${DELIVERY_FAILED_ROW_CLASS}`]: {
    boxShadow: "inset 4px 0 0 #d32f2f",
  },
};
