/**
 * The viewers' class filter (issue 24 point 7): the machine classes the user
 * may see (Customer Production only for the group CustomerProductionAccess,
 * as the server shows it), "All classes" when none is chosen.
 */
import { useAuth } from '../../../app/auth/auth-context';
import { selectableClasses } from '../../accounts/use-account-list-params';
import { FilterSelect } from './FilterSelect';

export function ClassFilter({ value, onChange }: { value: number | undefined; onChange(classId: number | undefined): void }) {
  const { hasCustomerProductionAccess } = useAuth();
  const options = selectableClasses(hasCustomerProductionAccess).map((c) => ({ value: c.id as number, label: c.name }));
  return <FilterSelect<number> label="Class" placeholder="All classes" options={options} value={value} onChange={onChange} width={170} />;
}
