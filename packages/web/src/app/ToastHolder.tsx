/**
 * antd's message hook, mounted by `ToastProvider` once its code has loaded
 * (a chunk of its own: the first screen draws without it). Hands the message
 * API to `onReady` and renders the holder the toasts show in.
 */
import { useEffect } from 'react';
import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

export default function ToastHolder({ onReady }: { onReady(api: MessageInstance): void }) {
  const [api, holder] = message.useMessage();
  useEffect(() => onReady(api), [api, onReady]);
  return holder;
}
