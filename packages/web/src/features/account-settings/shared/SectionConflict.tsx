/**
 * The conflict notice of a settings card (DESIGN §5 section versions): another
 * session pushed the section after this one loaded it. Shows the server's
 * detail (who pushed and when) and a Reload button that loads the current
 * values; the user's edits are replaced by them.
 */
import { Alert, Button } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';

export function SectionConflict({ detail, onReload }: { detail: string | undefined; onReload: () => void }) {
  if (!detail) return null;
  return (
    <Alert
      type="warning"
      showIcon
      role="alert"
      title="Someone else changed this section"
      description={detail}
      action={
        <Button size="small" icon={<ReloadOutlined aria-hidden />} onClick={onReload}>
          Reload
        </Button>
      }
      style={{ marginBottom: 12 }}
    />
  );
}
