/** `/lists/component-configs` (spec 3 §2.5): the component config catalogue. */
import { ConfigCataloguePage } from './ConfigCataloguePage';

export default function ComponentConfigsPage() {
  return <ConfigCataloguePage kind="component" />;
}
