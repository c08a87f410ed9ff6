import { MONITOR_FORM_TEXTS } from "@linewatch/contracts";
import { Box, Divider, Typography } from "@mui/material";
import { useId } from "react";
import { BacktestPanel } from "../backtest/BacktestPanel";
import { ModelNumbersSelect } from "./ModelNumbersSelect";
import { PartAttributesSection } from "./PartAttributesSection";
import { PeriodSection } from "./PeriodSection";
import { QueryPreview } from "./QueryPreview";
import { ResultSelect } from "./ResultSelect";
import { TrainingSplit } from "./TrainingSplit";

/**
 * The Data Filters tab of the MVD / SVD monitor form (requirements.md monitor-forms §2 "Data Filters tab",
 * §4, §5): period, training split, model numbers, result and part attributes, with the query
 * preview beside them. Reads and writes the form's values (react-hook-form) and the form context.
 */
export function DataFiltersTab() {
  const recordsId = useId();
  return (
    <Box
      sx={{
        display: "grid",
        gridTemplateColumns: { xs: "1fr", md: "minmax(0, 3fr) minmax(260px, 2fr)" },
        gap: 3,
        alignItems: "start",
      }}
    >
      <Box sx={{ display: "grid", gap: 3 }}>
        <PeriodSection />
        <Divider />
        <TrainingSplit />
        <Divider />
        <Box component="section" aria-labelledby={recordsId} sx={{ display: "grid", gap: 2 }}>
          <Typography id={recordsId} variant="subtitle1" component="h3">
            {MONITOR_FORM_TEXTS.records}
          </Typography>
          <ModelNumbersSelect />
          <ResultSelect />
        </Box>
        <PartAttributesSection />
      </Box>
      <Box
        sx={{ position: { md: "sticky" }, top: { md: 16 }, display: "grid", gap: 2, alignContent: "start" }}
      >
        <QueryPreview />
        <BacktestPanel />
      </Box>
    </Box>
  );
}
