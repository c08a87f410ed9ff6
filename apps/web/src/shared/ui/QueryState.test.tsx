import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import { QueryState } from "./QueryState";

afterEach(() => cleanup());

describe("QueryState", () => {
  it("offers Retry for an error that a retry can mend", () => {
    const onRetry = vi.fn();
    render(
      <QueryState isLoading={false} error={new ApiError(500, "Internal", "Boom")} onRetry={onRetry}>
        content
      </QueryState>,
    );
    expect(screen.getByText("Boom")).toBeInTheDocument();
    screen.getByRole("button", { name: "Retry" }).click();
    expect(onRetry).toHaveBeenCalled();
  });

  it("offers the way back instead of a Retry that cannot succeed when the thing is not found", () => {
    render(
      <QueryState
        isLoading={false}
        error={new ApiError(404, "Not Found", "Monitor not found")}
        onRetry={() => {}}
        notFoundAction={<a href="/">Back to the lines</a>}
      >
        content
      </QueryState>,
    );
    expect(screen.getByText("Monitor not found")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Retry" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to the lines" })).toBeInTheDocument();
  });
});
