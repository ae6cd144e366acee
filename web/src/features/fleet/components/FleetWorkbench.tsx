import { FLEET_HEADROOM_BOUNDS, FleetStatisticSchema } from '@blockwise/shared/fleet';
import { useEffect, useMemo, useRef, useState } from 'react';
import { DropZone } from '../../../components/DropZone.tsx';
import { SelectField, TextField } from '../../../components/Field.tsx';
import { Region } from '../../../components/Region.tsx';
import { RegionSelect } from '../../../components/RegionSelect.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/States.tsx';
import { describeApiError } from '../../../lib/api-client.ts';
import { useCatalog } from '../../../lib/catalog.ts';
import { fmtNum } from '../../../lib/format.ts';
import { refusalText } from '../../../lib/idb-store.ts';
import { numberProblem, parseNumberText, suffixRefusal } from '../../../lib/parse-number.ts';
import { createFleetPlan, type CreatedFleetPlan } from '../api/fleet-api.ts';
import {
  EMPTY_INPUTS,
  FLEET_FILE_KINDS,
  addFleetFiles,
  classifyFleetFile,
  removeFleetFile,
  type FleetFile,
  type FleetInputs,
} from '../fleet-files.ts';
import { DEFAULT_OPTIONS, planReadFleet, readDroppedFleet, type FleetOptions } from '../fleet-local.ts';
import { fleetViewSearch, readFleetAddress, type FleetAddress } from '../fleet-address.ts';
import type { FleetDraftStore } from '../fleet-draft.ts';
import { FleetFacts, FleetPlanView } from './FleetPlanView.tsx';

type SaveState = 'idle' | 'saving' | { error: string } | CreatedFleetPlan;

/** Headroom is typed in percent (25 = peak × 1.25); the planner, the CLI and the API take the fraction. */
const PERCENT = 100;
const MAX_HEADROOM_PCT = FLEET_HEADROOM_BOUNDS.max * PERCENT;

/**
 * The typed headroom: the fraction the planner takes, or the error shown on the field (the plan
 * is hidden meanwhile: never a plan of an earlier value). A value between 0 and 1 is accepted
 * with a warning: the CLI and API take 0.25 for 25 %, so "0.25" here is most likely that.
 */
export function readHeadroom(text: string): {
  headroom: number | null;
  error: string | null;
  warning: string | null;
} {
  const pct = parseNumberText(text);
  if (
    text.trim() === '' ||
    pct === null ||
    pct < FLEET_HEADROOM_BOUNDS.min * PERCENT ||
    pct > MAX_HEADROOM_PCT
  ) {
    const why =
      numberProblem(text) === 'suffix'
        ? suffixRefusal('%')
        : `Enter a percentage from ${FLEET_HEADROOM_BOUNDS.min * PERCENT} to ${MAX_HEADROOM_PCT.toLocaleString('en-US')}, such as 25.`;
    return { headroom: null, error: `Headroom: ${why}`, warning: null };
  }
  const warning =
    pct > 0 && pct < 1
      ? `Headroom is in percent: ${fmtNum(pct, 4)} means ${fmtNum(pct, 4)} % above the peak. Did you mean ${fmtNum(pct * PERCENT, 2)} %?`
      : null;
  return { headroom: pct / PERCENT, error: null, warning };
}

function FileList({ inputs, onRemove }: { inputs: FleetInputs; onRemove: (name: string) => void }) {
  const files: FleetFile[] = [
    ...(inputs.volumes ? [inputs.volumes] : []),
    ...(inputs.instances ? [inputs.instances] : []),
    ...inputs.metrics,
  ];
  if (files.length === 0) return null;
  return (
    <ul className="fleet-files" aria-label="Files">
      {files.map((f) => (
        <li key={`${f.kind}:${f.name}`}>
          <code>{f.name}</code>
          <span className="badge">{FLEET_FILE_KINDS[f.kind]}</span>
          <button
            type="button"
            className="btn btn--small btn--ghost"
            onClick={() => onRemove(f.name)}
            aria-label={`Remove ${f.name}`}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The planning side of the Fleet page: drop the AWS CLI outputs, choose the statistic, headroom
 * and region, see the plan (computed in the browser), export it, or save it for a share link.
 */
/** The page's view state and its setter: the Fleet page keeps it in the address; else (tests) here. */
export type FleetAddressApi = { value: FleetAddress; set: (patch: Partial<FleetAddress>) => void };

function useLocalAddress(): FleetAddressApi {
  const [value, setValue] = useState(() => readFleetAddress(''));
  return { value, set: (patch) => setValue((v) => ({ ...v, ...patch })) };
}

const filesOf = (inputs: FleetInputs): FleetFile[] => [
  ...(inputs.volumes ? [inputs.volumes] : []),
  ...(inputs.instances ? [inputs.instances] : []),
  ...inputs.metrics,
];

/** A moment after the last change, the dropped files are kept (one write per burst of drops). */
const DRAFT_DELAY_MS = 300;

export function FleetWorkbench({
  address: outer,
  draft = null,
}: {
  address?: FleetAddressApi;
  /** Where the unsaved plan's files are kept across reloads (the page passes IndexedDB). */
  draft?: FleetDraftStore | null;
} = {}) {
  const catalog = useCatalog();
  const local = useLocalAddress();
  const address = outer ?? local;
  const [inputs, setInputs] = useState<FleetInputs>(EMPTY_INPUTS);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const choices = {
    statistic: address.value.statistic ?? DEFAULT_OPTIONS.statistic,
    region: address.value.region ?? DEFAULT_OPTIONS.region,
    ignoreRecurring: address.value.ignoreRecurring,
  };
  const defaultHeadroomText = String(DEFAULT_OPTIONS.headroom * PERCENT);
  const headroomText = address.value.headroomText ?? defaultHeadroomText;
  const setHeadroomText = (text: string) =>
    address.set({ headroomText: text === defaultHeadroomText ? null : text });
  const [save, setSave] = useState<SaveState>('idle');
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');

  // The unsaved plan's files: restored once on arrival (unless files were dropped meanwhile),
  // kept after each change.
  const restoring = useRef(draft !== null);
  useEffect(() => {
    if (!draft) return;
    let live = true;
    void draft.load().then((kept) => {
      if (!live || !restoring.current) return;
      restoring.current = false;
      if (!kept) return;
      setInputs((current) =>
        filesOf(current).length > 0 ? current : addFleetFiles(EMPTY_INPUTS, kept.files).inputs,
      );
      if (kept.unreadable.length > 0)
        setFileErrors([
          `${kept.unreadable.join(', ')}: kept in this browser but could not be read back; add ${kept.unreadable.length === 1 ? 'it' : 'them'} again.`,
        ]);
    });
    return () => {
      live = false;
    };
  }, [draft]);
  useEffect(() => {
    if (!draft || restoring.current) return;
    const timer = window.setTimeout(() => {
      void draft.save(filesOf(inputs)).then((outcome) => {
        if (outcome !== 'quota' && outcome !== 'unavailable') return;
        const text = `${refusalText(outcome, 'data')}: the files are not kept across reloads. Save & share the plan to keep it.`;
        setFileErrors((errors) => (errors.includes(text) ? errors : [...errors, text]));
      });
    }, DRAFT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [draft, inputs]);

  const headroom = readHeadroom(headroomText);
  // Reading the files (every point of every metric file) depends on the files only; the plan is
  // redone, cheaply, when an option changes.
  const read = useMemo(() => readDroppedFleet(inputs), [inputs]);
  const { statistic, region } = choices;
  // The maximum keeps every peak: the choice applies to p99/p95 only (kept if the user comes back).
  const ignoreRecurring = choices.ignoreRecurring && statistic !== 'max';
  const result = useMemo(
    () =>
      read?.ok && catalog.catalog && headroom.headroom !== null
        ? planReadFleet(
            read.value,
            { statistic, region, ignoreRecurring, headroom: headroom.headroom },
            catalog.catalog,
          )
        : read?.ok === false
          ? read
          : null,
    [read, statistic, region, ignoreRecurring, headroom.headroom, catalog.catalog],
  );

  const onFiles = async (files: File[]) => {
    const classified = await Promise.all(
      files.map(async (file) => classifyFleetFile(file.name, await file.text())),
    );
    const added = addFleetFiles(
      inputs,
      classified.flatMap((r) => (r.ok ? [r.value] : [])),
    );
    setFileErrors([...classified.flatMap((r) => (r.ok ? [] : [r.error.message])), ...added.refused]);
    restoring.current = false;
    setInputs(added.inputs);
    setSave('idle');
  };

  const update = (next: Partial<Omit<FleetOptions, 'headroom'>>) => {
    address.set(next);
    setSave('idle');
  };

  const onSave = async () => {
    if (!inputs.volumes || headroom.headroom === null) return;
    setSave('saving');
    try {
      const created = await createFleetPlan({
        volumes: inputs.volumes.json,
        metrics: inputs.metrics.map((m) => m.json),
        ...(inputs.instances ? { instances: inputs.instances.json } : {}),
        headroom: headroom.headroom,
        statistic,
        ...(ignoreRecurring ? { ignoreRecurring: true } : {}),
        region,
        // The stored plan's notes are read on the share page: the page's options, not the CLI's flags.
        audience: 'web',
      });
      setSave(created);
      setCopied('idle');
    } catch (error) {
      setSave({ error: describeApiError(error) });
    }
  };

  // Regions with a complete EBS price table, as the planning page offers (listPriceRegions).
  const regions = useMemo(
    () => catalog.catalog?.listPriceRegions().filter((r) => r.complete) ?? [],
    [catalog.catalog],
  );
  const plan = result?.ok ? result.value : null;
  // The share link opens the table as shown here: its sort and filters ride along (the plan's
  // options do not: the saved plan has them). One absolute URL for the link's href, its text and
  // what Copy link copies, so a link copied from the context menu is the one the button copies.
  const shareLink = (url: string) => {
    const link = new URL(url, window.location.origin);
    link.search = fleetViewSearch(address.value);
    return link.href;
  };

  return (
    <>
      <Region
        title="Fleet files"
        description={
          <>
            Drop <code>aws ec2 describe-volumes --output json</code>, one or more{' '}
            <code>aws cloudwatch get-metric-data</code> responses (run <code>blockwise fleet query</code> for
            the queries), and optionally <code>aws ec2 describe-instances --output json</code> for the
            instance EBS caps. Nothing leaves the browser until you save.
          </>
        }
      >
        <DropZone
          title="Drop the AWS CLI outputs here"
          hint="JSON files: volumes, metric data (several responses allowed), instances."
          buttonLabel="Choose files"
          accept=".json,application/json"
          onFiles={(files) => void onFiles(files)}
        />
        {fileErrors.length > 0 ? (
          <div className="banner banner--error" role="alert">
            {fileErrors.map((e) => (
              <p key={e}>{e}</p>
            ))}
          </div>
        ) : null}
        <FileList
          inputs={inputs}
          onRemove={(name) => {
            setInputs((i) => removeFleetFile(i, name));
            setSave('idle');
          }}
        />
        <div className="fleet-options">
          <SelectField
            label="Statistic"
            value={statistic}
            onChange={(e) => update({ statistic: FleetStatisticSchema.parse(e.target.value) })}
          >
            <option value="max">Maximum (as AWS Compute Optimizer)</option>
            <option value="p99">p99</option>
            <option value="p95">p95</option>
          </SelectField>
          <div className="fleet-options__recurring">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={ignoreRecurring}
                disabled={statistic === 'max'}
                aria-describedby="fleet-ignore-recurring-hint"
                onChange={(e) => update({ ignoreRecurring: e.target.checked })}
              />
              Ignore recurring peaks (size on the {statistic === 'max' ? 'percentile' : statistic})
            </label>
            <p className="field__hint" id="fleet-ignore-recurring-hint">
              {statistic === 'max'
                ? 'Only for p99 or p95: the maximum keeps every peak.'
                : ignoreRecurring
                  ? `Risk: a peak that recurs (a nightly batch, a checkpoint) is throttled to what the ${statistic} provisions, every time it recurs.`
                  : `Off: a peak that recurs (same time most days, or weekly) is kept, though the ${statistic} would drop it; on, it is throttled every time it recurs.`}
            </p>
          </div>
          <TextField
            label="Headroom (% above the peak)"
            inputMode="decimal"
            suffix="%"
            value={headroomText}
            error={headroom.error}
            hint={headroom.warning ?? 'In percent: 25 sizes for peak × 1.25 (the CLI and API take 0.25).'}
            onChange={(e) => {
              setHeadroomText(e.target.value);
              setSave('idle');
            }}
          />
          <RegionSelect
            label="Region (prices)"
            regions={regions}
            value={region}
            onChange={(code) => update({ region: code })}
          />
        </div>
      </Region>
      {catalog.status === 'error' ? (
        <ErrorState
          title="The AWS catalog could not be loaded"
          message={catalog.error}
          onRetry={catalog.retry}
        />
      ) : catalog.status === 'loading' ? (
        <LoadingState label="Loading the AWS catalog…" />
      ) : headroom.error !== null && read?.ok ? (
        <EmptyState title="No plan for this headroom">
          <p>{headroom.error}</p>
        </EmptyState>
      ) : result === null ? (
        <EmptyState title="No plan yet">
          <p>
            {inputs.volumes
              ? 'Add at least one get-metric-data response.'
              : 'Add the describe-volumes output.'}
          </p>
        </EmptyState>
      ) : !result.ok ? (
        <ErrorState title="These files cannot be planned" message={result.error.message} />
      ) : null}
      {plan ? (
        <>
          <Region
            title="Plan"
            description="Computed in this browser with the server's catalog. Save it to get a link that always shows these numbers."
            actions={
              <button
                type="button"
                className="btn btn--primary"
                onClick={() => void onSave()}
                disabled={save === 'saving' || headroom.error !== null}
              >
                {save === 'saving' ? 'Saving…' : 'Save & share'}
              </button>
            }
          >
            <FleetFacts plan={plan} />
            {typeof save === 'object' && 'error' in save ? (
              <p className="banner banner--error" role="alert">
                Could not save: {save.error}
              </p>
            ) : null}
            {typeof save === 'object' && 'id' in save ? (
              <p className="banner banner--info" role="status">
                Saved. Share link:{' '}
                <a className="fleet-share-link" href={shareLink(save.url)}>
                  {shareLink(save.url)}
                </a>{' '}
                <button
                  type="button"
                  className="btn btn--small"
                  onClick={() => {
                    navigator.clipboard
                      .writeText(shareLink(save.url))
                      .then(() => setCopied('copied'))
                      .catch(() => setCopied('failed'));
                  }}
                >
                  Copy link
                </button>{' '}
                {copied === 'copied'
                  ? 'Copied.'
                  : copied === 'failed'
                    ? 'This browser did not allow copying: select the link and copy it.'
                    : null}
              </p>
            ) : null}
          </Region>
          <FleetPlanView
            plan={plan}
            order={{
              sort: address.value.sort,
              onSort: (sort) => address.set({ sort }),
              filter: address.value.filter,
              onFilter: (filter) => address.set({ filter }),
            }}
          />
        </>
      ) : null}
    </>
  );
}
