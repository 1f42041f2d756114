import { Component, type ReactNode } from 'react';
import { ErrorScreen } from '../components/error-screen.tsx';
import { TookOver } from './page-boundary.tsx';

type Props = { children: ReactNode; resetKey?: unknown };
type State = { error: unknown; failed: boolean };

/** Shows the error screen (docs/product.md#error-screen) instead of a failed page; a new resetKey (the location) clears it. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidUpdate(previous: Props) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.reset();
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  reset = () => this.setState({ error: null, failed: false });

  override render() {
    if (this.state.failed)
      return (
        <>
          <TookOver />
          <ErrorScreen error={this.state.error} onReset={this.reset} />
        </>
      );
    return this.props.children;
  }
}
