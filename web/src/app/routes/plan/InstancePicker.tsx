import { memo, useCallback } from 'react';
import { InstanceCombobox } from '../../../components/InstanceCombobox.tsx';
import { sameData } from '../../../lib/same-data.ts';
import type { FioInput } from '../../session/session-state.ts';
import { inputTitle } from './input-text.ts';
import type { PlanSessionView } from './use-plan-session.ts';

type Props = {
  value: string | null;
  instanceTypes: PlanSessionView['instanceTypes'];
  catalogError: string | null;
  /** Someone reached for the picker (focus, the list button): the catalog is needed now. */
  onInterest: () => void;
  /** A fio run labelled with its instance or volume: its configuration can be applied in one click. */
  labelledRun: FioInput | undefined;
  dispatch: PlanSessionView['dispatch'];
  applyRunConfig: (input: FioInput) => void;
};

/**
 * The instance the plan is for, beside the data it applies to (it used to sit in the what-if
 * section, far below the inputs): its EBS caps decide which limit binds. Compared by value: a
 * what-if slider step leaves it as it is (bench P16).
 */
export const InstancePicker = memo(function InstancePicker({
  value,
  instanceTypes,
  catalogError,
  onInterest,
  labelledRun,
  dispatch,
  applyRunConfig,
}: Props) {
  const onChange = useCallback(
    (instanceType: string | null) => dispatch({ type: 'settings-changed', settings: { instanceType } }),
    [dispatch],
  );
  return (
    <div className="field-row field-row--wide" id="instance">
      <InstanceCombobox
        label="Instance type for the plan"
        description="Its EBS bandwidth and IOPS caps, instance store and family (for upgrade advice)."
        value={value}
        types={instanceTypes}
        catalogError={catalogError}
        onInterest={onInterest}
        onChange={onChange}
      />
      {labelledRun ? (
        <button
          type="button"
          className="btn btn--small align-end"
          onClick={() => applyRunConfig(labelledRun)}
        >
          Use the configuration of {inputTitle(labelledRun)}
        </button>
      ) : null}
    </div>
  );
}, sameData);
