import { resolveConfig } from '../service/config.js'
import { BackupError, backup, restore } from './backup.js'

/**
 * `npm run backup -- <file>` and `npm run restore -- <file> [--force]`, for the data dir of
 * SIGIL_DATA_DIR (default `.sigil`). See `backup.ts`.
 */
const [mode, ...args] = process.argv.slice(2)
const force = args.includes('--force')
const files = args.filter((a) => !a.startsWith('--'))
const usage = 'usage: npm run backup -- <file> | npm run restore -- <file> [--force]'

try {
  if (files.length !== 1 || (mode !== 'backup' && mode !== 'restore') || args.some((a) => a.startsWith('--') && a !== '--force')) {
    throw new BackupError(usage)
  }
  const config = resolveConfig()
  const file = files[0]!
  if (mode === 'backup') {
    const r = await backup(config, file)
    console.error(
      `Backed up ${config.dataDir} (through ${r.via === 'service' ? 'the running service' : 'the data dir'}) to ${r.file}: ` +
        `${r.bytes} bytes, ${r.ms} ms.\n` +
        '  The backup holds no master key: keep the master key (master.key of the data dir, or SIGIL_MASTER_KEY)\n' +
        '  separately and securely; without it no sealed key in the backup can be opened.',
    )
  } else {
    const r = await restore(config, file, { force })
    console.error(`Restored ${file} (taken ${r.header.createdAt}) into ${r.dataDir} in ${r.ms} ms.`)
    if (r.masterKey === 'missing') {
      console.error(
        `  No master key yet: put the master key of the backed-up service (id ${r.header.masterKeyId ?? 'unknown'}) in\n` +
          `  ${r.dataDir}/master.key (mode 0600) or set SIGIL_MASTER_KEY before starting the service.`,
      )
    }
  }
} catch (e) {
  console.error(`${mode ?? 'backup'}: ${e instanceof BackupError ? e.message : (e as Error).message}`)
  process.exit(1)
}
