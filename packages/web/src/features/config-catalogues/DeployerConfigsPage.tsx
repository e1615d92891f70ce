/** `/lists/deployer-configs` (spec 3 §2.5): the deployer config catalogue. */
import { ConfigCataloguePage } from './ConfigCataloguePage';

export default function DeployerConfigsPage() {
  return <ConfigCataloguePage kind="deployer" />;
}
