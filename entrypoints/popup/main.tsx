import { render } from 'preact'

render(<h1>Sigil</h1>, document.getElementById('app')!)
