import { render } from 'preact';
import { prefetchFirstScreen } from './api/client';
import { App } from './app';
import { inTelegram, ready } from './tg';
import './styles.css';

ready();
// inside Telegram the first screen's reads need nothing but initData: start them with the session check
if (inTelegram) prefetchFirstScreen();
render(<App />, document.getElementById('app')!);
