import { Component, type ErrorInfo as ReactErrorInfo, type ReactNode } from 'react';
import { testIds } from '../testIds';

interface Props {
  /** Names the panel in the fallback: "The job graph could not be shown". */
  panel: string;
  children: ReactNode;
  /** A change resets the boundary (e.g. navigating elsewhere). */
  resetKey?: string;
}

interface State {
  error: Error | null;
  resetKey?: string;
}

/** One per feature panel: a crash shows a message in that panel and the rest of the console keeps working. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  override componentDidCatch(error: unknown, info: ReactErrorInfo): void {
    console.error(`Panel "${this.props.panel}" crashed`, error, info.componentStack);
  }

  private readonly onRetry = (): void => {
    this.setState({ error: null });
  };

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <section className="panel panel--crashed" role="alert" data-testid={testIds.app.crashed}>
        <h2>{this.props.panel} could not be shown</h2>
        <p>
          The console hit an unexpected problem while drawing this panel. The rest of the console still works.
        </p>
        <pre className="crash-detail">{this.state.error.message}</pre>
        <button type="button" className="button" onClick={this.onRetry}>
          Try again
        </button>
      </section>
    );
  }
}
