import { Component, type ErrorInfo, type ReactNode } from 'react';

type Props = {
  /** What the region shows, for the message: "the latency chart". */
  what: string;
  children: ReactNode;
  /** Changing this value clears a caught error (e.g. new data arrived). */
  resetKey?: unknown;
};
type State = { error: Error | null; resetKey: unknown };

/**
 * Contains a failure to one region: a broken latency chart must not blank the cost table. Shows
 * what failed and offers a retry; the rest of the page keeps working.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[blockwise] ${this.props.what} failed`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="state state--error" role="alert">
        <p className="state__title">Could not show {this.props.what}.</p>
        <p className="state__detail">{this.state.error.message}</p>
        <button type="button" className="btn btn--small" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
