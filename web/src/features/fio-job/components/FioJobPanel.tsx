import { generateFioJob } from '@blockwise/shared/fio-job';
import { describeVolume, type VolumeConfig } from '@blockwise/shared/plan';
import { type IoProfile } from '@blockwise/shared/profile';
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { SelectField, TextField } from '../../../components/Field.tsx';
import { Disclosure } from '../../../components/Disclosure.tsx';
import { downloadText } from '../../../lib/download.ts';
import {
  ENGINES,
  defaultDraft,
  isDevice,
  jobFileNameFor,
  readFioJobDraft,
  uploadLabels,
  volumeIndexOf,
  type FioJobDraft,
  type SessionTarget,
} from '../fio-job-form.ts';
import '../fio-job.css';

export type JobProfile = { key: string; title: string; kindLabel: string; profile: IoProfile };

const volumeText = (v: VolumeConfig): string => describeVolume(v, { performance: true });

/** A block of text to copy, with Copy (clipboard, or selected for Ctrl+C when refused). */
function CopyBlock({ label, text, children }: { label: string; text: string; children?: ReactNode }) {
  const id = useId();
  const pre = useRef<HTMLPreElement>(null);
  const [status, setStatus] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus(`${label} copied to the clipboard.`);
    } catch {
      const el = pre.current;
      const selection = window.getSelection();
      if (el && selection) {
        const range = document.createRange();
        range.selectNodeContents(el);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      setStatus('Copy was blocked by the browser: the text is selected, press Ctrl+C (⌘C).');
    }
  };
  return (
    <div className="fio-job__block">
      <div className="fio-job__block-head">
        <h3 className="subhead" id={`${id}-label`}>
          {label}
        </h3>
        <div className="button-row">
          <button
            type="button"
            className="btn btn--small"
            onClick={copy}
            aria-label={`Copy ${label.toLowerCase()}`}
          >
            Copy
          </button>
          {children}
        </div>
      </div>
      <pre ref={pre} className="fio-job__code" tabIndex={0} aria-labelledby={`${id}-label`}>
        <code>{text}</code>
      </pre>
      <p className="field__hint" role="status">
        {status}
      </p>
    </div>
  );
}

/**
 * The fio job that reproduces a profile (typed in, imported or measured) on a candidate volume:
 * `generateFioJob` writes the job file — every option with the reason for it — the command that
 * runs it and the upload line that sends the result back with the session's labels (through the CLI
 * this server hands out at /cli/blockwise.mjs).
 * Loaded lazily.
 */
export default function FioJobPanel({
  profiles,
  initialKey,
  target,
}: {
  profiles: readonly JobProfile[];
  /** The profile the session plans for. */
  initialKey: string | null;
  target: SessionTarget;
}) {
  const id = useId();
  const [key, setKey] = useState(initialKey ?? profiles[0]?.key ?? '');
  const [draft, setDraft] = useState<FioJobDraft>(() => defaultDraft(target));
  const chosen = profiles.find((p) => p.key === key) ?? profiles[0];
  const set = (patch: Partial<FioJobDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const read = useMemo(
    () => (chosen ? readFioJobDraft(draft, target, chosen.title) : null),
    [draft, target, chosen],
  );
  const job = useMemo(
    () =>
      chosen && read?.ok
        ? // The user has the web app, not the CLI: the upload line fetches it from this server.
          generateFioJob(chosen.profile, {
            ...read.options,
            server: window.location.origin,
            cliFrom: 'server',
          })
        : null,
    [chosen, read],
  );
  if (!chosen) return null;
  const errors = read && !read.ok ? read.errors : {};
  const labels = uploadLabels(draft, target);
  const fileName = jobFileNameFor(chosen.title);
  const volumeIndex = volumeIndexOf(draft, target);
  const volume = volumeIndex >= 0 ? target.candidates[volumeIndex] : undefined;

  return (
    <div className="fio-job">
      <form
        className="fio-job__form"
        noValidate
        onSubmit={(e) => e.preventDefault()}
        aria-label="fio job options"
      >
        {profiles.length > 1 ? (
          <SelectField
            id={`${id}-profile`}
            label="Profile to reproduce"
            value={chosen.key}
            onChange={(e) => setKey(e.target.value)}
          >
            {profiles.map((p) => (
              <option key={p.key} value={p.key}>
                {p.title} ({p.kindLabel})
              </option>
            ))}
          </SelectField>
        ) : (
          <p className="field__hint">
            Reproduces <strong>{chosen.title}</strong> ({chosen.kindLabel}).
          </p>
        )}
        <fieldset className="fieldset fieldset--inline">
          <legend>I/O engine</legend>
          {ENGINES.map((e) => (
            <label key={e.value} className="radio" title={e.hint}>
              <input
                type="radio"
                name={`${id}-engine`}
                value={e.value}
                checked={draft.engine === e.value}
                onChange={() => set({ engine: e.value })}
              />
              {e.label}
            </label>
          ))}
        </fieldset>
        <div className="field-row">
          <TextField
            id={`${id}-runtime`}
            label="Runtime"
            hint="After the ramp; at least 30m (e.g. 30m, 1h, 3600)."
            value={draft.runtime}
            error={errors.runtime}
            autoComplete="off"
            onChange={(e) => set({ runtime: e.target.value })}
          />
          <TextField
            id={`${id}-ramp`}
            label="Ramp"
            hint="I/O before measuring starts (e.g. 60s, 2m)."
            value={draft.ramp}
            error={errors.ramp}
            autoComplete="off"
            onChange={(e) => set({ ramp: e.target.value })}
          />
        </div>
        <div className="field-row">
          <TextField
            id={`${id}-target`}
            label="Target device or file"
            hint="A device (/dev/nvme1n1) is overwritten whole; a file needs a size. Empty: CHANGE_ME, which fio refuses to run."
            placeholder="/dev/nvme1n1"
            value={draft.target}
            error={errors.target}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => set({ target: e.target.value })}
          />
          {draft.target.trim() !== '' && !isDevice(draft.target) ? (
            <TextField
              id={`${id}-size`}
              label="Test file size"
              hint="At least the working set, e.g. 100GiB. Empty: size=CHANGE_ME."
              value={draft.size}
              error={errors.size}
              autoComplete="off"
              onChange={(e) => set({ size: e.target.value })}
            />
          ) : null}
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={draft.pace} onChange={(e) => set({ pace: e.target.checked })} />
          <span>
            Pace at the profile’s IOPS (rate_iops)
            <span className="field__hint">
              {' '}
              — off: run as fast as the queue allows, to find the volume’s ceiling
            </span>
          </span>
        </label>
        <fieldset className="fieldset">
          <legend>Labels for the upload</legend>
          <div className="field-row">
            <fieldset className="fieldset fieldset--inline fieldset--inner">
              <legend>Kind</legend>
              {(['ebs', 'nvme'] as const).map((k) => (
                <label key={k} className="radio">
                  <input
                    type="radio"
                    name={`${id}-kind`}
                    value={k}
                    checked={draft.kind === k}
                    onChange={() => set({ kind: k })}
                  />
                  {k === 'ebs' ? 'EBS volume' : 'Local NVMe'}
                </label>
              ))}
            </fieldset>
            {draft.kind === 'ebs' ? (
              <SelectField
                id={`${id}-volume`}
                label="Volume"
                hint={
                  target.candidates.length === 0
                    ? 'Add a candidate volume under Right-size to label it here.'
                    : undefined
                }
                value={String(volumeIndex)}
                onChange={(e) => set({ volume: Number(e.target.value) })}
              >
                <option value="-1">not labelled (CHANGE_ME)</option>
                {target.candidates.map((c, i) => (
                  <option key={i} value={String(i)}>
                    Candidate {i + 1}: {volumeText(c)}
                  </option>
                ))}
              </SelectField>
            ) : null}
          </div>
          <p className="field__hint">
            From the session:{' '}
            {Object.entries(labels)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ')}
            {!target.instanceType ? '. No instance type chosen: instanceType=CHANGE_ME' : ''}
            {draft.kind === 'ebs' && !volume ? '. No volume: its labels are CHANGE_ME' : ''}
            {draft.kind === 'nvme'
              ? '. For local NVMe, delete the volume labels (CHANGE_ME) from the command'
              : ''}
            .
          </p>
        </fieldset>
      </form>

      {job && !job.ok ? (
        <p className="callout callout--concern" role="alert">
          No fio job for {chosen.title}: {job.error.message}
        </p>
      ) : null}
      {read && !read.ok ? (
        <p className="field__hint field__hint--warn" role="status">
          Fix the options above to see the job file.
        </p>
      ) : null}
      {job?.ok ? (
        <div className="fio-job__output">
          <CopyBlock label={`Job file (${fileName})`} text={job.value.jobFile}>
            <button
              type="button"
              className="btn btn--small btn--primary"
              onClick={() => downloadText(job.value.jobFile, fileName, 'text/plain')}
              aria-label={`Download .fio (${fileName})`}
            >
              Download .fio
            </button>
          </CopyBlock>
          <CopyBlock label="Command line" text={job.value.commandLine} />
          <CopyBlock label="Upload command" text={job.value.uploadCommand} />
          <Disclosure summary="Why each option" label={`Why each option of ${fileName}`}>
            <ul className="notes">
              {job.value.explanation.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          </Disclosure>
        </div>
      ) : null}
    </div>
  );
}
