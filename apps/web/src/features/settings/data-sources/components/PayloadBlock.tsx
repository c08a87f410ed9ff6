import { Box } from "@mui/material";

/** Pretty-prints JSON; anything else shows as received. */
function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** A message's payload in an expandable monospace block (closed until asked for). */
export function PayloadBlock({ label, payload }: { label: string; payload: string }) {
  return (
    <Box component="details" sx={{ "& summary": { cursor: "pointer", typography: "body2" } }}>
      <summary>{label}</summary>
      <Box
        component="pre"
        sx={{
          fontFamily: "monospace",
          fontSize: 13,
          bgcolor: "action.hover",
          borderRadius: 1,
          p: 1.5,
          mt: 1,
          mb: 0,
          maxHeight: 320,
          overflow: "auto",
          whiteSpace: "pre-wrap",
          overflowWrap: "anywhere",
        }}
      >
        {pretty(payload)}
      </Box>
    </Box>
  );
}
