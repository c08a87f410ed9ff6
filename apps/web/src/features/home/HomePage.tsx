import { PLANT_OVERVIEW_TEXTS } from "@linewatch/contracts";
import { Alert, Box, Stack, Typography } from "@mui/material";
import { usePlantLine } from "../../shared/data/plants/plant-line";
import { useMe } from "../../shared/data/session/queries";
import { formatDateTime } from "../../shared/format";
import { useTexts } from "../../shared/i18n/language";
import { QueryState } from "../../shared/ui/QueryState";
import { usePlantOverview } from "./api/queries";
import { FirstPlantForm } from "./components/FirstPlantForm";
import { LineCard } from "./components/LineCard";
import { NewestAlertsPanel } from "./components/NewestAlertsPanel";

/**
 * Home: the selected plant at a glance (issue 18 §3). Per line its status, last data and No
 * Ingestion, open alerts by monitor type and age, its monitors' last states as marks and records
 * per hour over 24 hours; beside them the plant's newest alerts. It refreshes itself every
 * PLANT_OVERVIEW_POLL_MS; a refresh that fails keeps the last answer and says so.
 */
export function HomePage() {
  const { plant, plants, isLoading, error } = usePlantLine();
  const T = useTexts(PLANT_OVERVIEW_TEXTS);
  const isAdministrator = useMe().data?.isAdministrator ?? false;
  const overview = usePlantOverview(plant?.id);
  const data = overview.data?.plantId === plant?.id ? overview.data : undefined;
  const now = data ? new Date(data.generatedAt) : new Date();
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "baseline" }}>
        <Typography variant="h5" component="h1">
          {plant ? plant.name : T.lines}
        </Typography>
        {data && (
          <Typography variant="caption" color="text.secondary">
            {T.updated(formatDateTime(data.generatedAt, data.timeZone))} · {T.timesIn(data.timeZone)}
          </Typography>
        )}
      </Stack>
      {data && overview.error ? (
        <Alert severity="warning">{T.refreshFailed(formatDateTime(data.generatedAt, data.timeZone))}</Alert>
      ) : null}
      <QueryState
        isLoading={isLoading || (!!plant && !data && overview.isLoading)}
        error={error ?? (data ? null : overview.error)}
        onRetry={() => overview.refetch()}
        isEmpty={plants.length === 0 || data?.lines.length === 0}
        empty={
          plants.length > 0 ? (
            <Typography color="text.secondary">{T.noLines}</Typography>
          ) : isAdministrator ? (
            // No plant yet: an administrator creates the first one here (issue 28 §1).
            <FirstPlantForm />
          ) : (
            <Stack spacing={0.5}>
              <Typography color="text.secondary">{T.noPlants}</Typography>
              <Typography color="text.secondary">{T.askAdministrator}</Typography>
            </Stack>
          )
        }
      >
        {data && (
          <Box
            sx={{
              display: "grid",
              gridTemplateColumns: { xs: "minmax(0, 1fr)", md: "minmax(0, 1fr) 320px" },
              gap: 2,
              alignItems: "start",
            }}
          >
            <Box
              component="section"
              aria-label={T.lines}
              sx={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(280px, 1fr))", gap: 1.5 }}
            >
              {data.lines.map((l) => (
                <LineCard key={l.id} line={l} timeZone={data.timeZone} hoursFrom={data.hoursFrom} now={now} />
              ))}
            </Box>
            <NewestAlertsPanel
              alerts={data.newestAlerts}
              lines={data.lines}
              timeZone={data.timeZone}
              now={now}
            />
          </Box>
        )}
      </QueryState>
    </Stack>
  );
}
