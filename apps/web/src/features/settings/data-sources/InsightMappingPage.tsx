import { DATA_SOURCE_MESSAGES, ZId } from "@linewatch/contracts";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from "@mui/material";
import { Navigate, Link as RouterLink, useSearchParams } from "react-router";
import { useMe } from "../../../app/auth/session";
import { usePlantLine } from "../../../app/context/PlantLineContext";
import { ApiError } from "../../../shared/api/client";
import { QueryState } from "../../../shared/ui/QueryState";
import { useDataSource } from "./api/queries";
import { DataSourceDetails } from "./components/DataSourceDetails";

const BACK_TO = "/settings?section=DATA_SOURCES";

/**
 * /settings/insight-mapping?sourceId=&mappingVersion= (architecture "routes"), opened by a data
 * source's Insight button. Until ingestion maps fields, it shows the source itself.
 */
export function InsightMappingPage() {
  const me = useMe().data;
  const { plant } = usePlantLine();
  const [params] = useSearchParams();
  const parsedId = ZId.safeParse(params.get("sourceId"));
  const sourceId = parsedId.success ? parsedId.data : undefined;
  const mappingVersion = params.get("mappingVersion") ?? "";
  const sourceQ = useDataSource(sourceId);

  if (me && !me.isAdministrator) return <Navigate to="/settings" replace />;

  const isNotFound = !sourceId || (sourceQ.error instanceof ApiError && sourceQ.error.status === 404);

  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }} component="section" aria-labelledby="insight-mapping-title">
      <Box>
        <Button component={RouterLink} to={BACK_TO} startIcon={<ArrowBackIcon />}>
          Back to {DATA_SOURCE_MESSAGES.title}
        </Button>
      </Box>
      <Typography variant="h5" component="h1" id="insight-mapping-title">
        Insight mapping{sourceQ.data ? ` : ${sourceQ.data.name}` : ""}
      </Typography>
      {isNotFound ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Alert severity="warning">{DATA_SOURCE_MESSAGES.notFound}</Alert>
          <Typography sx={{ mt: 2 }} color="text.secondary">
            It may have been deleted, or the link is incomplete. Pick a source on the Data Sources page.
          </Typography>
        </Paper>
      ) : sourceQ.isPending ? (
        <CircularProgress aria-label="Loading data source" />
      ) : (
        <QueryState isLoading={false} error={sourceQ.error} onRetry={() => void sourceQ.refetch()}>
          {sourceQ.data && (
            <DataSourceDetails
              source={sourceQ.data}
              timeZone={plant?.timeZone ?? "UTC"}
              mappingVersion={mappingVersion}
            />
          )}
        </QueryState>
      )}
    </Stack>
  );
}
