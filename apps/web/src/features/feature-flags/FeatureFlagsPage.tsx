import {
  AUDIT_TEXTS,
  FEATURE_FLAG_KEYS,
  FEATURE_FLAG_MESSAGES,
  FEATURE_FLAGS,
  featureFlagAccess,
} from "@linewatch/contracts";
import History from "@mui/icons-material/History";
import {
  Alert,
  Button,
  Paper,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { Navigate, Link as RouterLink } from "react-router";
import { useSetFeatureFlag } from "../../shared/data/session/mutations";
import { useFeatureFlags, useMe } from "../../shared/data/session/queries";
import { QueryState } from "../../shared/ui/QueryState";
import { canReadAuditLog } from "../audit-log/audit-log.access";

/**
 * The customer's feature flags, each with what it changes. Provider staff switch them;
 * administrators see them read-only (docs/architecture.md "who may change what").
 */
export function FeatureFlagsPage() {
  const me = useMe().data;
  const flagsQ = useFeatureFlags();
  const set = useSetFeatureFlag();
  const access = featureFlagAccess(me ?? { isAdministrator: false, isProviderStaff: false });
  if (me && !access.canView) return <Navigate to="/" replace />;
  return (
    <Stack spacing={2} sx={{ maxWidth: 1000 }}>
      <Stack direction="row" sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          Feature flags
        </Typography>
        {me && canReadAuditLog(me) && (
          <Button component={RouterLink} to="/audit-log?resource=feature_flag" startIcon={<History />}>
            {AUDIT_TEXTS.history}
          </Button>
        )}
      </Stack>
      <Typography color="text.secondary">Flags apply to everyone at {me?.customer.name}.</Typography>
      {me && !access.canChange && <Alert severity="info">{FEATURE_FLAG_MESSAGES.readOnly}</Alert>}
      <QueryState isLoading={flagsQ.isLoading} error={flagsQ.error} onRetry={() => flagsQ.refetch()}>
        <TableContainer component={Paper}>
          <Table size="small" aria-label="Feature flags">
            <TableHead>
              <TableRow>
                <TableCell>Flag</TableCell>
                <TableCell>What it changes</TableCell>
                <TableCell align="right">On</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {FEATURE_FLAG_KEYS.map((key) => (
                <TableRow key={key}>
                  <TableCell>{FEATURE_FLAGS[key].label}</TableCell>
                  <TableCell>{FEATURE_FLAGS[key].description}</TableCell>
                  <TableCell align="right">
                    <Switch
                      checked={flagsQ.data?.flags[key] ?? false}
                      disabled={!access.canChange || set.isPending}
                      onChange={(e) => set.mutate({ key, enabled: e.target.checked })}
                      slotProps={{ input: { "aria-label": FEATURE_FLAGS[key].label } }}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </QueryState>
    </Stack>
  );
}
