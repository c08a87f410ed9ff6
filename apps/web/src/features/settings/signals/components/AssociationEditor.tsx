import {
  DndContext,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { ENTITY_TYPE_LABELS, SIGNAL_MANAGEMENT_TEXT as TEXT, type TSignal } from "@linewatch/contracts";
import DragIndicatorIcon from "@mui/icons-material/DragIndicator";
import { Box, Button, Chip, Paper, Stack, Typography } from "@mui/material";
import { signalLabel } from "../../../signals/signal-tree";
import {
  CONTAINER_HEIGHTS,
  CONTAINER_TYPE,
  CONTAINERS,
  placementErrors,
  type TContainer,
  type TPlacement,
} from "../associations";

function SignalChip({ signal, container }: { signal: TSignal; container: TContainer }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: signal.id,
    data: { container },
  });
  const changes = signal.entityType !== CONTAINER_TYPE[container];
  return (
    <Chip
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      icon={<DragIndicatorIcon />}
      label={signalLabel(signal)}
      color={changes ? "warning" : "default"}
      title={
        changes
          ? `${ENTITY_TYPE_LABELS[signal.entityType]} → ${ENTITY_TYPE_LABELS[CONTAINER_TYPE[container]]}`
          : undefined
      }
      aria-roledescription="draggable signal"
      sx={{
        cursor: "grab",
        zIndex: isDragging ? 2 : undefined,
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        boxShadow: isDragging ? 4 : undefined,
      }}
    />
  );
}

function Container(p: { id: TContainer; signals: TSignal[]; error?: string }) {
  const { setNodeRef, isOver } = useDroppable({ id: p.id });
  const label = TEXT.containers[p.id];
  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      role="group"
      aria-label={label}
      data-container={p.id}
      data-over={isOver || undefined}
      sx={{
        height: CONTAINER_HEIGHTS[p.id],
        minHeight: 72,
        p: 1,
        overflow: "auto",
        borderColor: p.error ? "error.main" : isOver ? "primary.main" : undefined,
        bgcolor: isOver ? "action.hover" : undefined,
      }}
    >
      <Typography variant="subtitle2">{label}</Typography>
      <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1, mt: 0.5 }}>
        {p.signals.length === 0 ? (
          <Typography variant="caption" color="text.secondary">
            {TEXT.dropHere}
          </Typography>
        ) : (
          p.signals.map((s) => <SignalChip key={s.id} signal={s} container={p.id} />)
        )}
      </Stack>
      {p.error ? (
        <Typography variant="caption" color="error" role="alert">
          {p.error}
        </Typography>
      ) : null}
    </Paper>
  );
}

/**
 * From the keyboard a picked-up signal moves a whole container at a time: Up / Left to the one
 * above, Down / Right to the one below (dnd-kit's default moves 25 px a press).
 */
const containerCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const step = ["ArrowDown", "ArrowRight"].includes(event.code)
    ? 1
    : ["ArrowUp", "ArrowLeft"].includes(event.code)
      ? -1
      : 0;
  const { collisionRect, droppableRects, over, active } = context;
  if (step === 0 || !collisionRect) return undefined;
  // Where the chip is now: the container it is over, or (before the first move) the one it left.
  const from = (over?.id ?? active?.data.current?.container) as TContainer;
  const at = CONTAINERS.indexOf(from);
  const next = CONTAINERS[
    Math.max(0, Math.min(CONTAINERS.length - 1, (at < 0 ? 0 : at) + step))
  ] as TContainer;
  const rect = droppableRects.get(next);
  if (!rect) return undefined;
  event.preventDefault();
  // Centre the dragged chip in that container.
  return {
    x: currentCoordinates.x + rect.left + rect.width / 2 - (collisionRect.left + collisionRect.width / 2),
    y: currentCoordinates.y + rect.top + rect.height / 2 - (collisionRect.top + collisionRect.height / 2),
  };
};

/**
 * The association editing panel (requirements.md settings §2.8, §5 "Association containers", §9 heights):
 * the signals chosen in the tree, in four containers; dragging one into another container gives it
 * that entity type. Mouse or keyboard (dnd-kit: Space picks up, arrow keys move, Space drops).
 */
export function AssociationEditor(p: {
  placement: TPlacement;
  signalById: ReadonlyMap<string, TSignal>;
  hasChanges: boolean;
  onMove: (signalId: string, to: TContainer) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: containerCoordinates }),
  );
  const errors = placementErrors(p.placement);
  const isValid = Object.keys(errors).length === 0;
  const handleDragEnd = (e: DragEndEvent) => {
    const to = e.over?.id as TContainer | undefined;
    if (to && CONTAINERS.includes(to)) p.onMove(String(e.active.id), to);
  };
  return (
    <Stack
      spacing={1}
      sx={{ p: 2, height: "100%", minHeight: 0 }}
      component="section"
      aria-label={TEXT.associations}
    >
      <Typography variant="body2" color="text.secondary">
        {TEXT.dragHint}
      </Typography>
      <DndContext sensors={sensors} onDragEnd={handleDragEnd}>
        <Stack spacing={1} sx={{ flex: 1, minHeight: 0 }}>
          {CONTAINERS.map((c) => (
            <Container
              key={c}
              id={c}
              error={errors[c]}
              signals={p.placement[c].flatMap((id) => {
                const s = p.signalById.get(id);
                return s ? [s] : [];
              })}
            />
          ))}
        </Stack>
      </DndContext>
      <Box sx={{ display: "flex", justifyContent: "flex-end", gap: 1 }}>
        <Button onClick={p.onCancel}>{TEXT.cancel}</Button>
        <Button variant="contained" disabled={!isValid || !p.hasChanges} onClick={p.onConfirm}>
          {TEXT.confirm}
        </Button>
      </Box>
    </Stack>
  );
}
