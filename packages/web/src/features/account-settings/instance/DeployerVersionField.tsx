/**
 * The deployer version of the Instance Settings card (spec 1 §2 "deployer
 * version"; spec 3 §4 version modes, §5 deployer warning): the software
 * versions feature's picker bound to `deployerVersionMode` / `deployerVersion`
 * of the instance form, with None labelled Default and the account modes
 * (Default, Latest, Latest build, Select); and `DeployerWarning`, the "Be
 * careful" warning of spec 3 §5 shown while the mode is not Default.
 *
 * Known limitations: no tooltip yet when the chosen version differs from the
 * MMA class's deployer (spec 3 §5).
 */
import { Alert, Form } from 'antd';
import { DEPLOYER_WARNING, type TAccountVersionMode } from '@fleet/contracts';
import { ComponentVersionItem } from '../../software-versions/ComponentVersionItem';

const DEPLOYER_MODES: readonly TAccountVersionMode[] = ['None', 'Latest', 'LatestBuild', 'Select'];

export function DeployerVersionField({ disabled }: { disabled?: boolean }) {
  return <ComponentVersionItem component="deployer" modes={DEPLOYER_MODES} noneLabel="Default" disabled={disabled} />;
}

export function DeployerWarning() {
  const form = Form.useFormInstance();
  const mode = Form.useWatch<TAccountVersionMode | undefined>('deployerVersionMode', form);
  if (mode === undefined || mode === 'None') return null;
  return <Alert type="warning" showIcon title="Be careful" description={DEPLOYER_WARNING} style={{ marginBottom: 16 }} />;
}
