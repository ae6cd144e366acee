import type { PlanSession } from '@blockwise/shared/records';
import { useId, useRef, useState } from 'react';
import { TextField } from '../../../components/Field.tsx';
import { sessionLink } from '../../../lib/session-url.ts';
import '../share.css';

/**
 * "Save & share" (uploads the session's files, then freezes a comparison on the server → a short
 * link) and, for sessions without files, a link that carries the typed-in inputs in its fragment.
 */

export type SaveProgress = { step: string };
export type SaveError = { message: string; fileName?: string };

type State =
  | { kind: 'idle' }
  | { kind: 'saving'; step: string }
  | { kind: 'saved'; url: string; id: string; version: string }
  | { kind: 'failed'; error: SaveError };

function CopyField({ label, value }: { label: string; value: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Link copied to the clipboard.');
    } catch {
      input.current?.select();
      setCopied('Copy was blocked by the browser: the link is selected, press Ctrl+C (⌘C).');
    }
  };
  return (
    <div className="copy-field">
      <TextField label={label} value={value} readOnly onFocus={(e) => e.currentTarget.select()} ref={input} />
      <button type="button" className="btn btn--small" onClick={copy}>
        Copy link
      </button>
      <p role="status" className="field__hint">
        {copied ?? ''}
      </p>
    </div>
  );
}

export function ShareActions({
  blockers,
  onSave,
  linkSession,
  fileCount,
  onOpenShared,
  onLinkMade,
  version,
}: {
  /** Why saving is not possible right now (empty: it is). */
  blockers: string[];
  onSave: (title: string, progress: (p: SaveProgress) => void) => Promise<{ id: string; url: string }>;
  /** The session as a link (typed-in inputs and settings only). */
  linkSession: PlanSession | null;
  /** fio inputs a link cannot carry. */
  fileCount: number;
  onOpenShared: (id: string) => void;
  /** The "without saving" link was made (a session it carries whole is then shared). */
  onLinkMade?: () => void;
  /** Changes whenever what would be saved changes: a saved link older than that is flagged. */
  version: string;
}) {
  const id = useId();
  const [title, setTitle] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [link, setLink] = useState<string | null>(null);

  const save = async () => {
    setState({ kind: 'saving', step: 'Starting…' });
    try {
      const created = await onSave(title.trim(), (p) => setState({ kind: 'saving', step: p.step }));
      setState({
        kind: 'saved',
        url: new URL(created.url, window.location.origin).href,
        id: created.id,
        version,
      });
    } catch (error) {
      const e = error as Partial<SaveError> & Error;
      setState({
        kind: 'failed',
        error: { message: e.message, ...(e.fileName ? { fileName: e.fileName } : {}) },
      });
    }
  };

  return (
    <div className="share-actions">
      <div className="share-actions__save">
        <TextField
          id={`${id}-title`}
          label="Title (optional)"
          placeholder="e.g. pg cluster: r6i + gp3 vs r6id NVMe"
          maxLength={200}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
        <button
          type="button"
          className="btn btn--primary"
          onClick={save}
          disabled={blockers.length > 0 || state.kind === 'saving'}
          aria-describedby={blockers.length > 0 ? `${id}-blockers` : undefined}
        >
          {state.kind === 'saving' ? 'Saving…' : 'Save & share'}
        </button>
        {blockers.length > 0 ? (
          <ul id={`${id}-blockers`} className="field__hint">
            {blockers.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        ) : (
          <p className="field__hint">
            Uploads the session’s fio files with their labels to this server’s archive, then stores the
            comparison — results frozen with the price date and analysis version — under an unguessable link.
          </p>
        )}
        <div aria-live="polite" role="status">
          {state.kind === 'saving' ? <p className="field__hint">{state.step}</p> : null}
        </div>
        {state.kind === 'failed' ? (
          <p className="callout callout--concern" role="alert">
            {state.error.fileName ? <strong>{state.error.fileName}: </strong> : null}
            {state.error.message} Nothing in your session was lost; fix the problem and save again (uploads
            already done are reused).
          </p>
        ) : null}
        {state.kind === 'saved' ? (
          <div className="callout callout--ok">
            <CopyField label="Share link" value={state.url} />
            {state.version !== version ? (
              <p className="field__hint field__hint--warn">
                The session changed after this link was made; the link still shows the results as saved. Save
                again to share the changes.
              </p>
            ) : null}
            <button
              type="button"
              className="btn btn--small btn--ghost"
              onClick={() => onOpenShared(state.id)}
            >
              Open the share view
            </button>
          </div>
        ) : null}
      </div>
      <div className="share-actions__link">
        <button
          type="button"
          className="btn"
          disabled={!linkSession}
          onClick={() => {
            if (!linkSession) return;
            setLink(sessionLink(linkSession, window.location.origin));
            onLinkMade?.();
          }}
        >
          Share as a link without saving
        </button>
        <p className="field__hint">
          {!linkSession
            ? 'Needs typed-in metrics: a link carries typed-in numbers and settings, not fio files.'
            : fileCount > 0
              ? `The link carries typed-in numbers and settings only: the ${fileCount} fio file${fileCount === 1 ? '' : 's'} need Save & share.`
              : 'Typed-in numbers and settings travel in the link itself (after #): nothing is stored on the server.'}
        </p>
        {link ? <CopyField label="Session link" value={link} /> : null}
      </div>
    </div>
  );
}
