import { Component, type ComponentChildren } from 'preact';
import { t } from '../i18n';

/**
 * A page that throws while rendering shows a note and a retry instead of a blank app; the tabs (outside the
 * boundary) keep working. `resetKey` (the route) clears the error when the user goes elsewhere.
 */
export class ErrorBoundary extends Component<{ children: ComponentChildren; resetKey: string }, { error: unknown; key: string }> {
  state = { error: null as unknown, key: '' };

  static getDerivedStateFromProps(props: { resetKey: string }, state: { key: string }) {
    return props.resetKey !== state.key ? { key: props.resetKey, error: null } : null;
  }

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  render() {
    if (this.state.error !== null) {
      return (
        <div class="section" role="alert" data-testid="page-error">
          <p class="error">{t.error}</p>
          <button class="btn plain" onClick={() => this.setState({ error: null })}>
            {t.retry}
          </button>
        </div>
      );
    }
    return this.props.children;
  }
}
