# fish completion for reckon(1): options; files after --questions, --words, --deck, --salvage and for FILE
# arguments; folders after --data-dir; the saved profiles after --profile (from
# `reckon --list-profiles`, with the --data-dir given earlier on the line).

function __reckon_profiles
    set -l tokens (commandline -opc)
    set -l dir
    for i in (seq 2 (count $tokens))
        switch $tokens[$i]
            case --data-dir
                set -l next (math $i + 1)
                if test $next -le (count $tokens)
                    set dir --data-dir $tokens[$next]
                end
            case '--data-dir=*'
                set dir --data-dir (string replace -- --data-dir= '' $tokens[$i])
        end
    end
    if set -q dir[2]
        set dir[2] (string replace -r '^~/' "$HOME/" -- $dir[2])
    end
    set -l command (string replace -r '^~/' "$HOME/" -- $tokens[1])
    $command $dir --list-profiles 2>/dev/null
end

# A FILE argument: any word but one that starts with - (an option), and after --, any word.
function __reckon_wants_file
    contains -- -- (commandline -opc); and return 0
    not string match -q -- '-*' (commandline -ct)
end

complete -c reckon -f
complete -c reckon -n __reckon_wants_file -F
complete -c reckon -s e -l expression -x -d 'Evaluate EXPR and print the result'
complete -c reckon -l data-dir -x -a '(__fish_complete_directories (commandline -ct))' -d "Keep all of Reckon's files in DIR"
complete -c reckon -l profile -x -a '(__reckon_profiles)' -d 'Whose settings and progress to use'
complete -c reckon -l questions -r -F -d 'Add trivia questions from FILE to the quiz'
complete -c reckon -l words -r -F -d 'Play the anagram game with the words of FILE'
complete -c reckon -l deck -r -F -d 'Load a flashcard deck from FILE'
complete -c reckon -l salvage -r -F -d 'Add what a damaged or set-aside database holds'
complete -c reckon -l list-profiles -d 'Print the names of the saved profiles'
complete -c reckon -s h -l help -d 'Show the help'
complete -c reckon -l version -d 'Show the version'
