import { DATA_SOURCE_MESSAGES, type TDataSource } from "@linewatch/contracts";
import AddIcon from "@mui/icons-material/Add";
import RefreshIcon from "@mui/icons-material/Refresh";
import { Alert, Box, Button, CircularProgress, Divider, Paper, Stack, Typography } from "@mui/material";
import { lazy, Suspense } from "react";
import { Navigate, useNavigate } from "react-router";
import { usePlantLine } from "../../../shared/data/plants/plant-line";
import { useMe } from "../../../shared/data/session/queries";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { MountWhenOpened } from "../../../shared/ui/MountWhenOpened";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { useCreateDataSource, useDeleteDataSource } from "./api/mutations";
import { useDataSources, useIngestor } from "./api/queries";
import { CsvUploadSection } from "./CsvUploadSection";
import { DataSourceList } from "./components/DataSourceList";
import { IngestorInfo } from "./components/IngestorInfo";
import { SourcesLoadError } from "./components/SourcesLoadError";
import { IngestTokensSection } from "./IngestTokensSection";
import { MqttCredentialSection } from "./MqttCredentialSection";

// Dialogs load their code when first opened (issue #17).
const AddDataSourceDialog = lazy(() =>
  import("./components/AddDataSourceDialog").then((m) => ({ default: m.AddDataSourceDialog })),
);
const DeleteErrorDialog = lazy(() =>
  import("./components/DeleteErrorDialog").then((m) => ({ default: m.DeleteErrorDialog })),
);

/** The page's dialogs, one open at a time, with the data each was opened with. */
type Dialogs = {
  add: undefined;
  confirmDelete: TDataSource;
  deleteFailed: { source: TDataSource; error: unknown };
};

/**
 * Settings → Data Sources (administrators only; requirements.md monitor-forms §2, requirements.md settings §2.1): the
 * current plant's ingestor id and one card per data source, with add, insight and delete; then
 * the plant's MQTT credential, its ingest tokens and CSV upload of part records.
 */
export function DataSourcesPage() {
  const me = useMe().data;
  const { plant, isLoading: isPlantLoading } = usePlantLine();
  const plantId = plant?.id;
  const navigate = useNavigate();
  const ingestorQ = useIngestor(plantId);
  const sourcesQ = useDataSources(plantId);
  const create = useCreateDataSource(plantId);
  const remove = useDeleteDataSource(plantId);
  // A closed dialog keeps its data, so its text does not blank out while it fades away.
  const dialogs = useDialogs<Dialogs>();
  const failed = dialogs.data("deleteFailed");
  const target = dialogs.data("confirmDelete") ?? failed?.source ?? null;

  if (me && !me.isAdministrator) return <Navigate to="/settings" replace />;

  const refresh = () => {
    void ingestorQ.refetch();
    void sourcesQ.refetch();
  };
  // requirements.md monitor-forms §2: a relative path, so from /settings it opens /settings/insight-mapping.
  const openInsight = (s: TDataSource) =>
    navigate(`insight-mapping?sourceId=${encodeURIComponent(s.id)}&mappingVersion=`);
  const askDelete = (source: TDataSource) => dialogs.open("confirmDelete", source);
  const confirmDelete = () => {
    if (!target) return;
    remove.mutate(target, {
      onSuccess: () => dialogs.close(),
      onError: (error) => dialogs.open("deleteFailed", { source: target, error }),
    });
  };

  return (
    <Stack spacing={2} component="section" aria-labelledby="data-sources-title">
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="h5" component="h2" id="data-sources-title" sx={{ flexGrow: 1 }}>
          {DATA_SOURCE_MESSAGES.title}
        </Typography>
        <Button
          startIcon={sourcesQ.isFetching ? <CircularProgress size={16} /> : <RefreshIcon />}
          onClick={refresh}
          disabled={!plantId || sourcesQ.isFetching}
        >
          Refresh
        </Button>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => dialogs.open("add", undefined)}
          disabled={!plantId}
        >
          Add data source
        </Button>
      </Box>

      {!plantId ? (
        isPlantLoading ? (
          <CircularProgress aria-label="Loading plant" />
        ) : (
          <Alert severity="info">{DATA_SOURCE_MESSAGES.plantRequired}</Alert>
        )
      ) : (
        <>
          <Paper variant="outlined" sx={{ px: 2, py: 1.5 }}>
            <Typography variant="body2" color="text.secondary">
              Plant {plant?.name}
            </Typography>
            <IngestorInfo
              ingestorId={ingestorQ.data?.id}
              isLoading={ingestorQ.isPending}
              isError={ingestorQ.isError}
            />
          </Paper>
          {sourcesQ.isError ? (
            <SourcesLoadError
              error={sourcesQ.error}
              isRetrying={sourcesQ.isFetching}
              onRetry={() => void sourcesQ.refetch()}
            />
          ) : sourcesQ.isPending ? (
            <Box sx={{ display: "flex", justifyContent: "center", p: 4 }}>
              <CircularProgress aria-label="Loading data sources" />
            </Box>
          ) : (
            <DataSourceList
              sources={sourcesQ.data}
              timeZone={plant?.timeZone ?? "UTC"}
              onInsight={openInsight}
              onDelete={askDelete}
            />
          )}
          {plant && (
            <>
              <Divider />
              <MqttCredentialSection plant={plant} />
              <Divider />
              <IngestTokensSection plant={plant} />
              <Divider />
              <CsvUploadSection plant={plant} />
            </>
          )}
        </>
      )}

      {dialogs.isOpen("add") && plant && (
        <Suspense fallback={null}>
          <AddDataSourceDialog
            plantName={plant.name}
            onSubmit={async (body) => {
              await create.mutateAsync(body);
              dialogs.close();
            }}
            onClose={dialogs.close}
          />
        </Suspense>
      )}
      <ConfirmDialog
        open={dialogs.isOpen("confirmDelete")}
        title={DATA_SOURCE_MESSAGES.deleteTitle(target?.name ?? "")}
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={dialogs.close}
      >
        <Typography>
          The ingestor stops reading topic <code>{target?.topic}</code>. This is irreversible.
        </Typography>
      </ConfirmDialog>
      <MountWhenOpened isOpen={dialogs.isOpen("deleteFailed")}>
        <DeleteErrorDialog
          open={dialogs.isOpen("deleteFailed")}
          sourceName={target?.name ?? ""}
          error={failed?.error ?? null}
          onClose={dialogs.close}
        />
      </MountWhenOpened>
    </Stack>
  );
}
