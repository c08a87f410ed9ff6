import type { TDataSource } from "@linewatch/contracts";
import { Box, Paper } from "@mui/material";
import { formatDateTime } from "../../../../shared/format";

export type DataSourceDetailsProps = {
  source: TDataSource;
  timeZone: string;
  /** The mapping version asked for in the URL; empty until mappings exist. */
  mappingVersion: string;
};

/** The source's own fields and the ingestor it feeds. */
export function DataSourceDetails({ source, timeZone, mappingVersion }: DataSourceDetailsProps) {
  const rows: [string, string, boolean][] = [
    ["Name", source.name, false],
    ["Topic", source.topic, true],
    ["Created", formatDateTime(source.createdAt, timeZone), false],
    ["Ingestor ID", source.ingestorId, true],
    ["Data source ID", source.id, true],
    ["Mapping version", mappingVersion || "None yet", false],
  ];
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Box
        component="dl"
        sx={{
          m: 0,
          display: "grid",
          gridTemplateColumns: "max-content 1fr",
          columnGap: 3,
          rowGap: 1,
          "& dt": { color: "text.secondary" },
          "& dd": { m: 0, minWidth: 0, overflowWrap: "anywhere" },
        }}
      >
        {rows.map(([label, value, isCode]) => (
          <Box key={label} sx={{ display: "contents" }}>
            <dt>{label}</dt>
            <dd>
              {isCode ? (
                <Box component="code" sx={{ fontFamily: "monospace" }}>
                  {value}
                </Box>
              ) : (
                value
              )}
            </dd>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
