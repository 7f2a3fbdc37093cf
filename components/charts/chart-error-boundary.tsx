"use client";
// One chart that fails to draw (unexpected data, a Recharts bug) shows why, in its own box; the
// rest of the page and the other charts stay usable.
import { Component, type ReactNode } from "react";

export class ChartErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  render() {
    if (this.state.error) {
      return (
        <div className="chart-state error" role="alert">
          This chart could not be drawn: {this.state.error.message}
        </div>
      );
    }
    return this.props.children;
  }
}
