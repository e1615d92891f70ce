/**
 * Placeholder page of routes whose screens belong to later work (spec 1 §2
 * route table; Instance Types under /lists is an empty placeholder by the
 * specification itself). Shows the route's title from the router table.
 */
import { useMatches } from 'react-router';
import { Result } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { titledMatches } from '../app/routes';

export const NOT_BUILT_YET = 'This screen is not built yet.';

export default function NotBuiltYetPage() {
  const title = titledMatches(useMatches()).at(-1)?.handle.title ?? 'Not built yet';
  return <Result icon={<ToolOutlined aria-hidden />} title={title} subTitle={NOT_BUILT_YET} />;
}
