/** A boundary that shows `fallback` instead of a child that failed (a model that cannot load). */
import { Component, type ReactNode } from 'react';

interface Props {
  fallback: ReactNode;
  onError?: (error: unknown) => void;
  children?: ReactNode;
}

export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.warn('[vmarket] booth maker: a model could not be drawn', error);
    this.props.onError?.(error);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
