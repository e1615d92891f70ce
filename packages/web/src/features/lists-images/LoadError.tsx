/** The alert of a list that failed to load (spec 3 §8 "List errors ... show as alerts"): the server's reason. */
import { Alert } from 'antd';
import { errorText } from '../../app/api-client';

export function LoadError({ error, what }: { error: unknown; what: string }) {
  return <Alert type="error" showIcon style={{ marginBottom: 16 }} message={`Error occurred loading ${what}`} description={errorText(error, 'The server could not be reached')} />;
}
